import { Global, Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { EventsStore } from './events.store';

/** Global: every module that writes records its events through EventsService. */
@Global()
@Module({
  controllers: [EventsController],
  providers: [EventsService, EventsStore],
  exports: [EventsService],
})
export class EventsModule {}
