import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { ConstraintDto } from '../common/constraints/constraint.dto';
import { ConstraintValidator } from './constraint-validator.service';

/**
 * The constraint editor's check, shared by the segment and the strategy forms. It writes nothing
 * and its routes need different permissions (a segment's, or a strategy's in one environment), so
 * like a read it takes any admin-API token, as Unleash does (decisions-ui.md).
 */
@ApiTags('Context fields')
@ApiErrors(401, 403)
@Controller('api/admin/constraints')
export class ConstraintsController {
  constructor(private readonly constraints: ConstraintValidator) {}

  @Post('validate')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The constraint is valid' })
  @ApiOperation({
    summary: 'Check a constraint as a segment or strategy write would',
    operationId: 'validateConstraint',
  })
  @ApiErrors(...BODY_ERRORS)
  validate(@Body() dto: ConstraintDto): Promise<void> {
    return this.constraints.validateOne(dto);
  }
}
