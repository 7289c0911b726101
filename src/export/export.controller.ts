import { Body, Controller, HttpCode, Logger, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { sendPieces } from '../common/piece-reply';
import { ExportQueryDto } from './dto/export-query.dto';
import { ExportResultDto } from './dto/export-result.dto';
import { ExportService } from './export.service';

@ApiTags('Export')
@ApiErrors(401, 403)
@Controller('api/admin/features-batch')
export class ExportController {
  private readonly logger = new Logger(ExportController.name);

  constructor(private readonly exports: ExportService) {}

  /** Any admin-API token may export (rules.md §3): no permission beyond the guard's default. */
  @Post('export')
  @HttpCode(200)
  @ApiOkResponse({
    type: ExportResultDto,
    description:
      'The export; with downloadFile: true the same body, plus Content-Disposition: attachment; filename="export-<environment>-<yyyy-MM-dd_HH-mm-ss>.json" (UTC)',
  })
  @ApiOperation({ summary: 'Export features of an environment', operationId: 'exportFeatures' })
  @ApiErrors(...BODY_ERRORS, [404, 'Unknown environment, or unknown project when it selects'])
  async export(@Body() query: ExportQueryDto, @Res() reply: FastifyReply): Promise<void> {
    // Errors (unknown environment or project) are thrown here, before the first byte, so they
    // are still error records; the body is then written as it is built (issue 15).
    const { body, filename, close, pieces } = await this.exports.export(query);
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
    if (query.downloadFile === true) {
      headers['content-disposition'] = `attachment; filename="${filename}"`;
    }
    try {
      await sendPieces(reply, body, headers, pieces, (error) =>
        this.logger.warn(`The export of ${query.environment} ended early: ${error.message}`),
      );
    } finally {
      // The read snapshot must end however the response does, also when the client leaves
      // first; the answer is under way or sent, so a failure to end it is not the client's.
      await close().catch(() => undefined);
    }
  }
}
