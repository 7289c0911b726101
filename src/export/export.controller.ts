import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import type { FastifyReply } from 'fastify';
import { ExportQueryDto } from './dto/export-query.dto';
import { ExportResultDto } from './dto/export-result.dto';
import { ExportService } from './export.service';

@ApiTags('Export')
@ApiErrors(401, 403)
@Controller('api/admin/features-batch')
export class ExportController {
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
  async export(
    @Body() query: ExportQueryDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ExportResultDto> {
    const { document, filename } = await this.exports.export(query);
    if (query.downloadFile === true) {
      void reply.header('Content-Disposition', `attachment; filename="${filename}"`);
    }
    return document;
  }
}
