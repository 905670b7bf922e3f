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
import { HttpAdapterHost } from '@nestjs/core';
import {
  ApiCookieAuth,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiSecurity,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-code.enum';
import {
  ApiCookieWrite,
  ApiDatabase,
  ApiProblems,
} from '../../common/openapi/api-problems.decorator';
import type { HttpRequest } from '../../common/http/http-request';
import { RateLimit } from '../../common/throttling/rate-limit.guard';
import { NoStore } from '../../common/http/no-store.decorator';
import { AppConfig } from '../../config/app-config';
import { Auth } from '../../common/auth/auth.decorator';
import type { AuthUser } from '../../common/auth/auth-user';
import { AuthService, SignedIn } from './auth.service';
import { CrossSiteGuard } from '../../common/auth/cross-site.guard';
import { CurrentSession } from '../../common/auth/current-session.decorator';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ID_TOKEN_MAX_LENGTH, LoginDto } from './login.dto';
import { clearSessionCookie, readSessionCookie, setSessionCookie } from '../session/session-cookie';
import type { ActiveSession } from '../../common/auth/session-authenticator';
import { SessionService } from '../session/session.service';
import { AuthConfigResponse, MeResponse, SignedInResponse } from './sign-in-view.dto';

@ApiTags('auth')
@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  @Post('login')
  @NoStore()
  @HttpCode(200)
  @UseGuards(CrossSiteGuard)
  @RateLimit('loginPerMinute')
  @ApiOperation({
    operationId: 'login',
    summary: 'Sign in with an ID token from the identity provider; sets the session cookie',
    description:
      `\`id_token\` at most ${ID_TOKEN_MAX_LENGTH} characters. \`email_not_verified\`: a valid ` +
      'token, an unverified email, an account not linked yet. `unavailable` with Retry-After: ' +
      'the provider or a key it has just published cannot be read yet (the token may be good).',
  })
  @ApiOkResponse({ type: SignedInResponse, description: 'Sets the HttpOnly session cookie' })
  @ApiCookieWrite()
  @ApiDatabase()
  @ApiProblems(
    ErrorCode.InvalidIdToken,
    ErrorCode.EmailNotVerified,
    ErrorCode.AccountNotFound,
    ErrorCode.AccountDisabled,
    ErrorCode.SignInNotConfigured,
  )
  async login(
    @Body() body: LoginDto,
    @Req() req: HttpRequest,
    @Headers('user-agent') userAgent: string | undefined,
    @Res({ passthrough: true }) res: unknown,
  ): Promise<SignedInResponse> {
    return this.signedIn(res, await this.auth.login(body.id_token, { ip: req.ip, userAgent }));
  }

  @Get('config')
  @ApiOperation({
    operationId: 'getAuthConfig',
    summary: "Where the console signs in: the identity provider's issuer and its client id there",
  })
  @ApiOkResponse({ type: AuthConfigResponse })
  signInConfig(): AuthConfigResponse {
    return AuthConfigResponse.from(this.auth.consoleSignIn());
  }

  @Get('me')
  @NoStore()
  @Auth()
  @ApiOperation({ operationId: 'getCurrentUser', summary: 'The signed-in user' })
  @ApiOkResponse({ type: MeResponse })
  me(@CurrentUser() user: AuthUser): MeResponse {
    return MeResponse.from(user);
  }

  @Post('refresh')
  @NoStore()
  @HttpCode(200)
  @Auth()
  @ApiCookieWrite()
  @ApiOperation({
    operationId: 'refreshSession',
    summary: 'Reread the account and replace the session (and its cookie)',
  })
  @ApiOkResponse({ type: SignedInResponse, description: 'A new cookie; the old one stops working' })
  async refresh(
    @CurrentSession() session: ActiveSession,
    @Req() req: HttpRequest,
    @Headers('user-agent') userAgent: string | undefined,
    @Res({ passthrough: true }) res: unknown,
  ): Promise<SignedInResponse> {
    return this.signedIn(res, await this.auth.refresh(session, { ip: req.ip, userAgent }));
  }

  @Post('logout')
  @HttpCode(204)
  @UseGuards(CrossSiteGuard)
  @ApiOperation({ operationId: 'logout', summary: 'Revoke the session and clear its cookie' })
  // The cookie is read when sent, and not required: optional security is `[{}, { session: [] }]`.
  @ApiCookieAuth('session')
  @ApiSecurity({})
  @ApiNoContentResponse({ description: 'Revoked and cleared, also without a valid session' })
  @ApiCookieWrite()
  @ApiDatabase()
  async logout(@Req() req: HttpRequest, @Res({ passthrough: true }) res: unknown): Promise<void> {
    await this.sessions.revoke(readSessionCookie(req, this.config));
    clearSessionCookie(this.adapterHost.httpAdapter, res, this.config);
  }

  /** `res` is the platform's response: the cookie is written through Nest's HTTP adapter. */
  private signedIn(res: unknown, { user, session }: SignedIn): SignedInResponse {
    setSessionCookie(this.adapterHost.httpAdapter, res, this.config, session);
    return SignedInResponse.signedIn(user, session);
  }
}
