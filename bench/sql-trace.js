// Debug aid: `node -r ./bench/sql-trace.js dist/main.js` prints every SQL text the process sends
// (to stderr), to check that the twin sends the same statements. Not used by `npm run bench`.
const { Client } = require('pg');
const query = Client.prototype.query;
Client.prototype.query = function (config, ...rest) {
  const text = typeof config === 'string' ? config : config && config.text;
  if (text) process.stderr.write(`SQL ${text.replace(/\s+/g, ' ')}\n`);
  return query.call(this, config, ...rest);
};
