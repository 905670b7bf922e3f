import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RateLimit } from '../common/throttling/rate-limit.guard';
import { AppConfig } from '../config/app-config';
import { Auth } from './auth.decorator';
import type { AuthUser } from './auth-user';
import { AuthService, SignedIn } from './auth.service';
import { CrossSiteGuard } from './cross-site.guard';
import { CurrentSession } from './current-session.decorator';
import { CurrentUser } from './current-user.decorator';
import { LoginDto } from './login.dto';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from './session-cookie';
import type { ActiveSession } from './session.service';
import { SessionService } from './session.service';
import { MeResponse, SignedInResponse, userView } from './user-view.dto';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
  ) {}

  @Post('login')
  @HttpCode(200)
  @UseGuards(CrossSiteGuard)
  @RateLimit('loginPerMinute')
  @ApiOkResponse({ type: SignedInResponse, description: 'Sets the HttpOnly session cookie' })
  @ApiUnauthorizedResponse({ description: '`invalid_id_token`' })
  @ApiForbiddenResponse({ description: '`account_not_found`, `account_disabled`, `forbidden`' })
  @ApiServiceUnavailableResponse({ description: '`sign_in_not_configured`, `unavailable`' })
  async login(
    @Body() body: LoginDto,
    @Headers('user-agent') userAgent: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SignedInResponse> {
    return this.signedIn(res, await this.auth.login(body.id_token, userAgent));
  }

  @Get('me')
  @Auth()
  @ApiOkResponse({ type: MeResponse })
  me(@CurrentUser() user: AuthUser): MeResponse {
    return { user: userView(user) };
  }

  @Post('refresh')
  @HttpCode(200)
  @Auth()
  @ApiOkResponse({ type: SignedInResponse, description: 'A new cookie; the old one stops working' })
  async refresh(
    @CurrentSession() session: ActiveSession,
    @Headers('user-agent') userAgent: string | undefined,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SignedInResponse> {
    return this.signedIn(res, await this.auth.refresh(session, userAgent));
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(CrossSiteGuard)
  @ApiNoContentResponse({ description: 'Revoked and cleared, also without a valid session' })
  async logout(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<void> {
    await this.sessions.revoke(readSessionCookie(req, this.config));
    clearSessionCookie(res, this.config);
  }

  private signedIn(res: FastifyReply, { user, session }: SignedIn): SignedInResponse {
    setSessionCookie(res, this.config, session);
    return { user: userView(user), session: { expires_at: session.expiresAt.toISOString() } };
  }
}
