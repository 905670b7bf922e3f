import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { Auth } from '../common/auth/auth.decorator';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiProblems } from '../common/openapi/api-problems.decorator';
import { AuditEventListDto } from './audit-event-view.dto';
import { AuditEvents } from './audit-events.service';
import { ListAuditEventsDto } from './list-audit-events.dto';
import { NoStore } from '../common/http/no-store.decorator';

/** The audit trail of the admin's organization (docs/audit.md). */
@ApiTags('audit-events')
@NoStore()
@Controller('api/v1/audit-events')
export class AuditController {
  constructor(private readonly events: AuditEvents) {}

  @Get()
  @Auth({ role: 'admin' })
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: "Audit events whose actor or subject is of the admin's organization, newest first",
  })
  @ApiOkResponse({ type: AuditEventListDto })
  @ApiProblems(ErrorCode.ValidationFailed)
  async list(
    @CurrentUser() user: AuthUser,
    @Query() q: ListAuditEventsDto,
  ): Promise<AuditEventListDto> {
    return AuditEventListDto.from(
      await this.events.list(
        user.orgId,
        { action: q.action, actorId: q.actor_id, subjectId: q.subject_id, since: q.since },
        q,
      ),
    );
  }
}
