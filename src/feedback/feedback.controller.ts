import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { FeedbackDto, FeedbackListDto, FeedbackSummaryDto } from './dto/feedback.dto';
import { FeedbackSummaryQueryDto, ListFeedbackQueryDto } from './dto/list-feedback.dto';
import { ProvideFeedbackDto } from './dto/provide-feedback.dto';
import { FeedbackService } from './feedback.service';
import { FeedbackBody } from './provide-feedback.pipe';

@ApiTags('Feedback')
@Controller()
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  /** Any admin-API token may submit feedback; the seed answers 200, not 201. */
  @Post('feedback')
  @HttpCode(200)
  @ApiBody({ type: ProvideFeedbackDto })
  @ApiOkResponse({ type: FeedbackDto })
  provide(@FeedbackBody() dto: ProvideFeedbackDto): Promise<FeedbackDto> {
    return this.feedback.provide(dto);
  }

  @Get('api/admin/feedback')
  @RequirePermission('READ_FEEDBACK')
  list(@Query() query: ListFeedbackQueryDto): Promise<FeedbackListDto> {
    return this.feedback.list(query);
  }

  @Get('api/admin/feedback/summary')
  @RequirePermission('READ_FEEDBACK')
  summary(@Query() query: FeedbackSummaryQueryDto): Promise<FeedbackSummaryDto> {
    return this.feedback.summary(query);
  }
}
