import { DomainError } from '../../common/errors/domain.error';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { validateInput } from '../../common/validation/validate-input';
import { CreateDeviceDto } from '../registry/create-device.dto';
import { DeviceKey, deviceKeyFrom, DeviceKeyError } from '../registry/device-key';

/** One refused item of a batch: its place in the batch, a stable code, and why. */
export interface BatchRowError {
  index: number;
  code: ErrorCode.ValidationFailed | ErrorCode.DeviceExists;
  message: string;
}

/** An item that passed CreateDeviceDto and, when it has one, whose key is a usable device key. */
export interface BatchRow {
  index: number;
  deviceId: string;
  model: string;
  provider: string;
  key?: DeviceKey;
}

/** A row's message is the client's field names and ours: bounded, as an unknown key may be long. */
const MESSAGE_MAX = 300;

const rowError = (index: number, message: string): BatchRowError => ({
  index,
  code: ErrorCode.ValidationFailed,
  message: message.length > MESSAGE_MAX ? `${message.slice(0, MESSAGE_MAX - 1)}…` : message,
});

/**
 * Checks every item as POST /api/v1/devices checks its body (the same DTO through the same pipe:
 * unknown fields, storable text, lengths, the key's shape), then its key with deviceKeyFrom, then
 * that its device_id is not one an earlier item already names. All errors, in index order.
 */
export async function checkedRows(
  items: readonly unknown[],
): Promise<{ rows: BatchRow[]; errors: BatchRowError[] }> {
  const rows: BatchRow[] = [];
  const errors: BatchRowError[] = [];
  const firstAt = new Map<string, number>();
  for (const [index, item] of items.entries()) {
    const checked = await checkedRow(index, item);
    if ('message' in checked) {
      errors.push(checked);
      continue;
    }
    const earlier = firstAt.get(checked.deviceId);
    if (earlier !== undefined) {
      errors.push(rowError(index, `device_id appears earlier in the batch, at index ${earlier}`));
      continue;
    }
    firstAt.set(checked.deviceId, index);
    rows.push(checked);
  }
  return { rows, errors };
}

async function checkedRow(index: number, item: unknown): Promise<BatchRow | BatchRowError> {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) {
    return rowError(index, 'the item must be an object');
  }
  let dto: CreateDeviceDto;
  try {
    dto = await validateInput(CreateDeviceDto, item as Record<string, unknown>);
  } catch (err) {
    if (!(err instanceof DomainError) || err.code !== ErrorCode.ValidationFailed) throw err;
    return rowError(index, (err.errors ?? []).map((e) => e.message).join('; ') || err.detail);
  }
  const row: BatchRow = {
    index,
    deviceId: dto.device_id,
    model: dto.model,
    provider: dto.provider,
  };
  if (dto.public_key === undefined) return row;
  try {
    return { ...row, key: await deviceKeyFrom(dto.public_key) };
  } catch (err) {
    if (!(err instanceof DeviceKeyError)) throw err;
    return rowError(index, err.message);
  }
}
