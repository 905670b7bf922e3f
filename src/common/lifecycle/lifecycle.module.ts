import { Global, Module } from '@nestjs/common';
import { Drain } from './drain';

/** The drain state, one per app: the HTTP setup, health and the shutdown share it. */
@Global()
@Module({ providers: [Drain], exports: [Drain] })
export class LifecycleModule {}
