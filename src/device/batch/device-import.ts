import { createReadStream } from 'node:fs';
import { csvObjects, CsvError } from './device-csv';
import { DEVICE_BATCH_MAX } from './device-batch.dto';

/** The CSV's columns, in this order, as the header must name them. */
export const IMPORT_COLUMNS = ['device_id', 'model', 'provider'] as const;

/** Far above 1 000 rows of the longest valid fields: reading stops past it. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/**
 * The file's bytes, refused once they pass `limit`. Counted while reading, not from `stat()`: a
 * FIFO or a device file has no size until it is read, and may never end.
 */
async function readAtMost(path: string, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop by the throw destroys the stream: nothing past the limit is read.
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new Error(`${path} is over 2 MiB: split it`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/**
 * `device:import`'s file as batch items (row N of the data, counted from 0 after the header, is
 * item N). What is not a well-formed file is refused whole, with its line, before anything boots:
 * not UTF-8, not strict CSV, not the three columns, over 1 000 rows (one call is one transaction
 * of at most 1 000, as on the API: split the file). The values are checked by DeviceBatch.
 */
export async function readDeviceCsv(path: string): Promise<Record<string, string>[]> {
  const bytes = await readAtMost(path, MAX_FILE_BYTES);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
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
