import { Body, Controller, Get, Patch } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { userActor } from '../audit/audit-event.types';
import { Auth } from '../common/auth/auth.decorator';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ApiCookieWrite } from '../common/openapi/api-problems.decorator';
import { AppConfig } from '../config/app-config';
import { OwnOrgResponse } from './org-view.dto';
import { OrgService } from './org.service';
import { UpdateOrgDto } from './update-org.dto';

/** The signed-in person's own organization (any role: dashboards show its name). */
@ApiTags('org')
@Controller('api/v1/org')
export class OrgController {
  constructor(
    private readonly orgs: OrgService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Auth()
  @ApiOperation({ operationId: 'getOrganization', summary: "The signed-in user's organization" })
  @ApiOkResponse({ type: OwnOrgResponse })
  async get(@CurrentUser() me: AuthUser): Promise<OwnOrgResponse> {
    return OwnOrgResponse.own(await this.orgs.get(me.orgId), this.config.subscriptions.fulfilmentOrgId);
  }

  @Patch()
  @Auth({ role: 'admin' })
  @ApiOperation({
    operationId: 'updateOrganization',
    summary: "Set when the organization's devices count as offline (null: the default)",
  })
  @ApiOkResponse({ type: OwnOrgResponse })
  @ApiCookieWrite()
  async update(@CurrentUser() me: AuthUser, @Body() body: UpdateOrgDto): Promise<OwnOrgResponse> {
    const org = await this.orgs.setDeviceOfflineAfter(
      me.orgId,
      body.device_offline_after_seconds,
      userActor(me),
    );
    return OwnOrgResponse.own(org, this.config.subscriptions.fulfilmentOrgId);
  }
}
