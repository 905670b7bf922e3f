import { type ReactNode, useRef, useState } from 'react';
import { api, type Schemas } from '../api/client';
import { ApiError, data } from '../api/problem';
import { CsvError, parseCsv } from '../../../src/device/batch/device-csv';
import { ProblemMessage } from '../ui/problem-message';

const COLUMNS = ['device_id', 'model', 'provider'];
const MAX_BYTES = 256 * 1024;

interface RowError {
  line: number;
  message: string;
}

/** The rows of a device CSV (the CLI's format, the CLI's reader), each with its line. */
function rowsOf(text: string): { device: Schemas['CreateDeviceDto']; line: number }[] {
  const [header, ...records] = parseCsv(text);
  if (header?.fields.join(',') !== COLUMNS.join(','))
    throw new CsvError(1, `the header must be ${COLUMNS.join(',')}`);
  return records.map(({ fields, line }) => {
    if (fields.length !== COLUMNS.length)
      throw new CsvError(line, `${fields.length} fields where ${COLUMNS.length} were expected`);
    const [device_id = '', model = '', provider = ''] = fields;
    return { device: { device_id, model, provider }, line };
  });
}

/**
 * Import CSV: a file of device_id,model,provider, sent as one batch. The service writes all of
 * it or nothing; its row errors are listed by the file's line. The button goes with the page's
 * actions, the report above the table.
 */
export function useCsvImport(onImported: (message: string) => void): {
  button: ReactNode;
  report: ReactNode;
} {
  const input = useRef<HTMLInputElement>(null);
  const [errors, setErrors] = useState<RowError[]>([]);
  const [failure, setFailure] = useState<unknown>();

  async function upload(file: File) {
    setErrors([]);
    setFailure(undefined);
    try {
      if (file.size > MAX_BYTES)
        throw new ApiError(413, {
          title: 'The file is too large',
          detail: 'At most 256 KiB (1 000 devices).',
        });
      const rows = rowsOf(await file.text());
      const result = await data(
        api.POST('/api/v1/devices/batch', { body: { devices: rows.map((r) => r.device) } }),
      );
      if (result.errors.length > 0) {
        setErrors(
          result.errors.map((e) => ({ line: rows[e.index]?.line ?? 0, message: e.message })),
        );
        return;
      }
      onImported(
        `${result.created.length} devices registered, ${result.existing.length} already there.`,
      );
    } catch (err) {
      if (err instanceof CsvError)
        setErrors([{ line: err.line, message: err.message.replace(/^line \d+: /, '') }]);
      else setFailure(err);
    } finally {
      if (input.current) input.current.value = '';
    }
  }

  const button = (
    <>
      <button type="button" onClick={() => input.current?.click()}>
        Import CSV
      </button>
      <input
        ref={input}
        type="file"
        accept=".csv,text/csv"
        hidden
        aria-label="CSV file of devices"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void upload(file);
        }}
      />
    </>
  );
  const report = (
    <>
      <ProblemMessage error={failure} />
      {errors.length > 0 && (
        <div role="alert" className="problem">
          <strong>Nothing was imported: fix these rows and import the file again.</strong>
          <ul>
            {errors.map((e, k) => (
              <li key={k}>
                Line {e.line}: {e.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </>
  );
  return { button, report };
}
