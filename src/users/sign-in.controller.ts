import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../auth/auth.decorators';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { readCookie, sessionCookie } from './cookies';
import { LoginDto, UserDto } from './dto/user.dto';
import { SESSION_COOKIE, SessionsService } from './sessions.service';

/** Signing in and out with a username and password (Unleash's "simple" authentication). */
@ApiTags('Auth')
@Controller()
export class SignInController {
  constructor(private readonly sessions: SessionsService) {}

  @Post('auth/simple/login')
  @Public()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in: sets the session cookie',
    operationId: 'login',
    security: [],
  })
  @ApiErrors(...BODY_ERRORS, [401, 'Wrong username or password'], [429, 'Too many failed sign-ins'])
  @ApiOkResponse({ type: UserDto })
  async login(
    @Body() dto: LoginDto,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserDto> {
    const { user, sessionId, maxAgeSeconds } = await this.sessions.login(
      dto.username,
      dto.password,
      request.ip,
    );
    void reply.header(
      'set-cookie',
      sessionCookie(SESSION_COOKIE, sessionId, maxAgeSeconds, request.protocol === 'https'),
    );
    return user;
  }

  @Post('logout')
  @Public()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Sign out: ends the session everywhere',
    operationId: 'logout',
    security: [],
  })
  @ApiNoContentResponse()
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (sessionId) await this.sessions.logout(sessionId);
    void reply.header(
      'set-cookie',
      sessionCookie(SESSION_COOKIE, '', 0, request.protocol === 'https'),
    );
  }
}
