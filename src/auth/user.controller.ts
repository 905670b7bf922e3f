import { Body, Controller, Get, Param, Patch, Post } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import { Auth } from './auth.decorator';
import type { AuthUser } from './auth-user';
import { CreateUserDto } from './create-user.dto';
import { CurrentUser } from './current-user.decorator';
import { UpdateUserDto } from './update-user.dto';
import { AdminUserView, adminUserView, UserListResponse } from './user-view.dto';
import { UserService } from './user.service';

/** Account administration: role admin, and only ever the administrator's own organization. */
@ApiTags('users')
@Controller('api/v1/users')
@Auth({ role: 'admin' })
export class UserController {
  constructor(private readonly users: UserService) {}

  @Get()
  @ApiOkResponse({ type: UserListResponse })
  async list(@CurrentUser() me: AuthUser): Promise<UserListResponse> {
    return { items: (await this.users.list(me.orgId)).map(adminUserView) };
  }

  @Post()
  @ApiCreatedResponse({ type: AdminUserView, description: 'Signs in on first login by email' })
  @ApiConflictResponse({ description: '`user_exists`' })
  async create(@CurrentUser() me: AuthUser, @Body() body: CreateUserDto): Promise<AdminUserView> {
    return adminUserView(await this.users.create(me.orgId, body));
  }

  @Patch(':id')
  @ApiOkResponse({ type: AdminUserView })
  @ApiNotFoundResponse({ description: '`not_found`, also for another organization’s user' })
  @ApiConflictResponse({ description: '`conflict`: disabling or demoting yourself' })
  async update(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateUserDto,
  ): Promise<AdminUserView> {
    return adminUserView(await this.users.update(me.orgId, me.id, id, body));
  }
}
