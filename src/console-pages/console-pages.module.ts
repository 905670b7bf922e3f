import { Module } from '@nestjs/common';
import { ConsolePagesController } from './console-pages.controller';
import { ConsolePagesService } from './console-pages.service';

/** Serves the operators' console (console/ at the top of the repository, built by Vite). */
@Module({ controllers: [ConsolePagesController], providers: [ConsolePagesService] })
export class ConsolePagesModule {}
