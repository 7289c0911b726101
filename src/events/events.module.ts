import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Event } from './event.entity';
import { EventsController } from './events.controller';
import { EventsService } from './events.service';
import { EventsStore } from './events.store';

/** Global: every module that writes records its events through EventsService. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([Event])],
  controllers: [EventsController],
  providers: [EventsService, EventsStore],
  exports: [EventsService],
})
export class EventsModule {}
