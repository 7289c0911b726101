import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../common/api-errors.decorator';
import {
  EventCreatorDto,
  EventListDto,
  EventQueryDto,
  EventSearchResultDto,
} from './dto/event.dto';
import { EventsService } from './events.service';

/** Reading the audit trail; no route changes or deletes an event. */
@ApiTags('Events')
@ApiErrors(401, 403, 400)
@Controller('api/admin')
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get('events')
  @ApiOperation({ summary: 'The event log, newest first', operationId: 'getEvents' })
  @ApiOkResponse({ type: EventListDto })
  list(@Query() query: EventQueryDto): Promise<EventListDto> {
    return this.events.list(query);
  }

  @Get('event-creators')
  @ApiOperation({
    summary: 'The users who wrote events, for the event log filter',
    operationId: 'getEventCreators',
  })
  @ApiOkResponse({ type: [EventCreatorDto] })
  creators(): Promise<EventCreatorDto[]> {
    return this.events.creators();
  }

  @Get('search/events')
  @ApiOperation({ summary: 'Search the event log, newest first', operationId: 'searchEvents' })
  @ApiOkResponse({ type: EventSearchResultDto })
  search(@Query() query: EventQueryDto): Promise<EventSearchResultDto> {
    return this.events.search(query);
  }
}
