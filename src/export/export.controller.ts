import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ExportQueryDto } from './dto/export-query.dto';
import { ExportResultDto } from './dto/export-result.dto';
import { ExportService } from './export.service';

@ApiTags('Export')
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
  @ApiNotFoundResponse({ description: 'Unknown environment, or unknown project when it selects' })
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
