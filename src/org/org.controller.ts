import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { OrgResponse } from './org-view.dto';
import { OrgService } from './org.service';

/** The signed-in person's own organization (any role: dashboards show its name). */
@ApiTags('org')
@Controller('api/v1/org')
export class OrgController {
  constructor(private readonly orgs: OrgService) {}

  @Get()
  @Auth()
  @ApiOperation({ operationId: 'getOrganization', summary: "The signed-in user's organization" })
  @ApiOkResponse({ type: OrgResponse })
  async get(@CurrentUser() me: AuthUser): Promise<OrgResponse> {
    return OrgResponse.from(await this.orgs.get(me.orgId));
  }
}
