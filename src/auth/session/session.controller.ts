import { Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { ApiCookieWrite, ApiProblems } from '../../common/openapi/api-problems.decorator';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentSession } from '../../common/auth/current-session.decorator';
import type { ActiveSession } from '../../common/auth/session-authenticator';
import { RevokedResponse, SessionListItem, SessionListResponse } from './session-view.dto';
import { UserSessionsService } from './user-sessions.service';
import { NoStore } from '../../common/http/no-store.decorator';

/** The caller's own sessions: see where you are signed in, and end what you do not recognize. */
@ApiTags('auth')
@NoStore()
@Controller('api/auth/sessions')
@Auth()
export class SessionController {
  constructor(private readonly sessions: UserSessionsService) {}

  @Get()
  @ApiOperation({ operationId: 'listSessions', summary: "The caller's live sessions" })
  @ApiOkResponse({ type: SessionListResponse })
  async list(@CurrentSession() session: ActiveSession): Promise<SessionListResponse> {
    return {
      items: (await this.sessions.list(session)).map((s) => SessionListItem.from(s, session.id)),
    };
  }

  @Post('revoke-others')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revokeOtherSessions',
    summary: 'End every session of the caller but this one',
  })
  @ApiOkResponse({ type: RevokedResponse })
  @ApiCookieWrite()
  async revokeOthers(@CurrentSession() session: ActiveSession): Promise<RevokedResponse> {
    return { revoked: await this.sessions.revokeOthers(session) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    operationId: 'revokeSession',
    summary: 'End one of the caller’s sessions',
    description: '`not_found` also for another person’s session or one already ended.',
  })
  @ApiNoContentResponse({ description: 'Ended' })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  revoke(@CurrentSession() session: ActiveSession, @Param('id') id: string): Promise<void> {
    return this.sessions.revoke(session, id);
  }
}
