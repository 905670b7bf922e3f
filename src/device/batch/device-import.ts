import { readFile, stat } from 'node:fs/promises';
import { csvObjects, CsvError } from './device-csv';
import { DEVICE_BATCH_MAX } from './device-batch.dto';

/** The CSV's columns, in this order, as the header must name them. */
export const IMPORT_COLUMNS = ['device_id', 'model', 'provider'] as const;

/** Far above 1 000 rows of the longest valid fields: a larger file is refused unread. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * `device:import`'s file as batch items (row N of the data, counted from 0 after the header, is
 * item N). What is not a well-formed file is refused whole, with its line, before anything boots:
 * not UTF-8, not strict CSV, not the three columns, over 1 000 rows (one call is one transaction
 * of at most 1 000, as on the API: split the file). The values are checked by DeviceBatch.
 */
export async function readDeviceCsv(path: string): Promise<Record<string, string>[]> {
  if ((await stat(path)).size > MAX_FILE_BYTES) throw new Error(`${path} is over 2 MiB`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
  } catch {
    throw new Error(`${path} is not UTF-8 text`);
  }
  let items: Record<string, string>[];
  try {
    items = csvObjects(text, IMPORT_COLUMNS);
  } catch (err) {
    if (err instanceof CsvError) throw new Error(`${path}, ${err.message}`);
    throw err;
  }
  if (items.length > DEVICE_BATCH_MAX) {
    throw new Error(
      `${path} has ${items.length} devices; at most ${DEVICE_BATCH_MAX} per import (one transaction): split it`,
    );
  }
  return items;
}
