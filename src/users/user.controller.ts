import { Body, Controller, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiCookieWrite, ApiProblems } from '../common/openapi/api-problems.decorator';
import { Auth } from '../common/auth/auth.decorator';
import type { AuthUser } from '../common/auth/auth-user';
import { CreateUserDto } from './create-user.dto';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { UpdateUserDto } from './update-user.dto';
import { UserView } from '../common/auth/auth-user';
import { RevokedSessionsResponse, UserListResponse } from './user-view.dto';
import { UserService } from './user.service';
import { NoStore } from '../common/http/no-store.decorator';

/** Account administration: role admin, and only ever the administrator's own organization. */
@ApiTags('users')
@NoStore()
@Controller('api/v1/users')
@Auth({ role: 'admin' })
export class UserController {
  constructor(private readonly users: UserService) {}

  @Get()
  @ApiOperation({
    operationId: 'listUsers',
    summary: "The accounts of the administrator's organization",
  })
  @ApiOkResponse({ type: UserListResponse })
  async list(@CurrentUser() me: AuthUser): Promise<UserListResponse> {
    return UserListResponse.from(await this.users.list(me.orgId));
  }

  @Post()
  @ApiOperation({
    operationId: 'createUser',
    summary: 'Add an account; it links on its first sign-in',
  })
  @ApiCreatedResponse({ type: UserView, description: 'Signs in on first login by email' })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.UserExists)
  async create(@CurrentUser() me: AuthUser, @Body() body: CreateUserDto): Promise<UserView> {
    return UserView.from(await this.users.create(me.orgId, body));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateUser',
    summary: "Change an account's role or disable it",
    description:
      '`not_found` also for another organization’s user; `conflict` for disabling or demoting ' +
      'yourself, or leaving the organization without an active admin.',
  })
  @ApiOkResponse({ type: UserView })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound, ErrorCode.Conflict)
  async update(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateUserDto,
  ): Promise<UserView> {
    return UserView.from(await this.users.update(me.orgId, me.id, id, body));
  }

  @Post(':id/revoke-sessions')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'revokeUserSessions',
    summary: 'End every session of an account (a lost laptop); the account itself stays',
    description: '`not_found` also for another organization’s user.',
  })
  @ApiOkResponse({ type: RevokedSessionsResponse })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  async revokeSessions(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
  ): Promise<RevokedSessionsResponse> {
    return { revoked: await this.users.revokeSessions(me.orgId, me.id, id) };
  }
}
