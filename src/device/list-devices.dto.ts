import { PageQueryDto } from '../common/pagination/page-query.dto';

/** The org's device list takes the page parameters alone. */
export class ListDevicesDto extends PageQueryDto {}
