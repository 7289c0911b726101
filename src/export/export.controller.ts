import { Readable } from 'node:stream';
import { Body, Controller, HttpCode, Post, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
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
  async export(@Body() query: ExportQueryDto): Promise<StreamableFile> {
    // Errors (unknown environment or project) are thrown here, before the first byte, so they
    // are still error records; the body is then written as it is built (issue 15).
    const { body, filename, close } = await this.exports.export(query);
    const stream = Readable.from(body);
    // The read snapshot must end however the response does, also when the client leaves first.
    stream.once('close', () => void close().catch(() => undefined));
    return new StreamableFile(stream, {
      type: 'application/json; charset=utf-8',
      disposition: query.downloadFile === true ? `attachment; filename="${filename}"` : undefined,
    });
  }
}
