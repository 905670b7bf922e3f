// `node -r ./bench/sql-trace.js dist/main.js` records every SQL statement the process sends: as
// JSON lines {text, values} appended to SQL_TRACE_FILE when set (bench/plans.ts explains them),
// otherwise the text on stderr. Not loaded by the measured runs.
const { appendFileSync } = require('node:fs');
const { Client } = require('pg');
const file = process.env.SQL_TRACE_FILE;
const query = Client.prototype.query;
Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config && config.text;
  const values = Array.isArray(rest[0]) ? rest[0] : config && config.values;
  if (text && file) appendFileSync(file, `${JSON.stringify({ text, values: values ?? [] })}\n`);
  else if (text) process.stderr.write(`SQL ${text.replace(/\s+/g, ' ')}\n`);
  return query.call(this, config, ...rest);
};
