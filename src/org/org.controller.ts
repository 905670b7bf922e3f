import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { OrgService, OrgView } from './org.service';

class OrgResponse implements OrgView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

/** The signed-in person's own organization (any role: dashboards show its name). */
@ApiTags('org')
@Controller('api/v1/org')
export class OrgController {
  constructor(private readonly orgs: OrgService) {}

  @Get()
  @Auth()
  @ApiOkResponse({ type: OrgResponse })
  async get(@CurrentUser() me: AuthUser): Promise<OrgView> {
    return OrgService.view(await this.orgs.get(me.orgId));
  }
}
