import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { FavoriteFeature } from './favorite-feature.entity';
import { LoginAttempt } from './login-attempt.entity';
import { SessionsService } from './sessions.service';
import { SignInController } from './sign-in.controller';
import { User } from './user.entity';
import { UserSession } from './user-session.entity';
import { UsersController } from './users.controller';
import { UsersService } from './users.service';
import { UsersStore } from './users.store';

/** People: users, their passwords and sign-in sessions, and their favourite features. */
@Module({
  imports: [TypeOrmModule.forFeature([User, UserSession, LoginAttempt, FavoriteFeature])],
  controllers: [UsersController, SignInController],
  providers: [UsersStore, UsersService, SessionsService],
  exports: [SessionsService, UsersStore],
})
export class UsersModule {}
