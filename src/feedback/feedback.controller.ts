import { Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { FeedbackDto, FeedbackListDto, FeedbackSummaryDto } from './dto/feedback.dto';
import { FeedbackSummaryQueryDto, ListFeedbackQueryDto } from './dto/list-feedback.dto';
import { ProvideFeedbackDto } from './dto/provide-feedback.dto';
import { FeedbackService } from './feedback.service';
import { FeedbackBody } from './provide-feedback.pipe';

@ApiTags('Feedback')
@ApiErrors(401, 403)
@Controller()
export class FeedbackController {
  constructor(private readonly feedback: FeedbackService) {}

  /** Any admin-API token may submit feedback; the seed answers 200, not 201. */
  @Post('feedback')
  @HttpCode(200)
  @ApiBody({ type: ProvideFeedbackDto })
  @ApiOkResponse({ type: FeedbackDto })
  @ApiOperation({ summary: 'Submit feedback', operationId: 'provideFeedback' })
  @ApiErrors(...BODY_ERRORS)
  provide(@FeedbackBody() dto: ProvideFeedbackDto): Promise<FeedbackDto> {
    return this.feedback.provide(dto);
  }

  @Get('api/admin/feedback')
  @RequirePermission('READ_FEEDBACK')
  @ApiOperation({ summary: 'List feedback, newest first', operationId: 'listFeedback' })
  @ApiOkResponse({ type: FeedbackListDto })
  @ApiErrors(400)
  list(@Query() query: ListFeedbackQueryDto): Promise<FeedbackListDto> {
    return this.feedback.list(query);
  }

  @Get('api/admin/feedback/summary')
  @RequirePermission('READ_FEEDBACK')
  @ApiOperation({ summary: 'Summarise feedback by category', operationId: 'summarizeFeedback' })
  @ApiOkResponse({ type: FeedbackSummaryDto })
  @ApiErrors(400)
  summary(@Query() query: FeedbackSummaryQueryDto): Promise<FeedbackSummaryDto> {
    return this.feedback.summary(query);
  }
}
