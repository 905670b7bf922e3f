import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { OrgService, OrgView } from './org.service';

class OrgResponse implements OrgView {
  @ApiProperty({ format: 'uuid', example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15' }) id!: string;
  @ApiProperty({ example: 'Acme Care' }) name!: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' }) created_at!: string;
}

/** The signed-in person's own organization (any role: dashboards show its name). */
@ApiTags('org')
@Controller('api/v1/org')
export class OrgController {
  constructor(private readonly orgs: OrgService) {}

  @Get()
  @Auth()
  @ApiOperation({ operationId: 'getOrganization', summary: "The signed-in user's organization" })
  @ApiOkResponse({ type: OrgResponse })
  async get(@CurrentUser() me: AuthUser): Promise<OrgView> {
    return OrgService.view(await this.orgs.get(me.orgId));
  }
}
