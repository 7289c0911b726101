import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import {
  ApiBody,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { CurrentPrincipal } from '../auth/auth.decorators';
import type { Principal } from '../auth/permissions';
import { ImportRequestDto } from './dto/import-request.dto';
import { ImportValidationDto } from './dto/import-validation.dto';
import { ImportService } from './import.service';

/*
 * No @RequirePermission: what an import needs depends on the file and on what exists (rules of
 * issue 14, item 6), so the service works out the whole list and answers 403 with all of it.
 * The guard still denies callers without an admin-API token. The body is typed `unknown` so that
 * the global pipe leaves it alone: the service drops unknown top-level collections of `data`
 * (Unleash's `links`) before validating the rest against ImportRequestDto.
 */
@ApiTags('Import')
@ApiErrors(401, 403, ...BODY_ERRORS)
@Controller('api/admin/features-batch')
export class ImportController {
  constructor(private readonly imports: ImportService) {}

  @Post('validate')
  @HttpCode(200)
  @ApiBody({ type: ImportRequestDto })
  @ApiOkResponse({
    type: ImportValidationDto,
    description: 'What an import would do; nothing is written',
  })
  @ApiOperation({
    summary: 'Validate an import: its errors, warnings and missing permissions',
    operationId: 'validateImport',
  })
  @ApiErrors(...BODY_ERRORS)
  async validate(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
  ): Promise<ImportValidationDto> {
    return this.imports.validate(await this.imports.parse(body), principal);
  }

  @Post('import')
  @HttpCode(204)
  @ApiBody({ type: ImportRequestDto })
  @ApiOperation({
    summary: 'Import features into a project and environment, in one transaction',
    operationId: 'importFeatures',
  })
  @ApiNoContentResponse({ description: 'Imported (Unleash answers 200 with an empty body)' })
  @ApiErrors(...BODY_ERRORS)
  async import(@Body() body: unknown, @CurrentPrincipal() principal: Principal): Promise<void> {
    await this.imports.import(await this.imports.parse(body), principal);
  }
}
