import { DomainError } from '../common/errors/domain.error';

/** The scrape was refused (METRICS_TOKEN set, and not presented). */
export class MetricsError extends DomainError {}
