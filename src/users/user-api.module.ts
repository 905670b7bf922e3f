import { Module } from '@nestjs/common';
import { UserController } from './user.controller';
import { UserModule } from './user.module';

/** The administrators' account routes. */
@Module({ imports: [UserModule], controllers: [UserController] })
export class UserApiModule {}
