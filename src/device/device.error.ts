import { DomainError } from '../common/errors/domain.error';

/** An expected failure of the device registry or the device token exchange. */
export class DeviceError extends DomainError {}
