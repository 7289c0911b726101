import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ApiErrors, BODY_ERRORS } from '../common/api-errors.decorator';
import { RequirePermission } from '../auth/auth.decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { CreateSegmentDto, UpdateSegmentDto } from './dto/create-segment.dto';
import { ValidateSegmentDto } from './dto/validate-segment.dto';
import { SegmentDto, SegmentListDto, SegmentStrategiesDto } from './dto/segment.dto';
import { SegmentsService } from './segments.service';

@ApiTags('Segments')
@ApiErrors(401, 403)
@Controller('api/admin/segments')
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  @ApiOkResponse({ type: SegmentListDto })
  @ApiOperation({ summary: 'List segments', operationId: 'listSegments' })
  list(): Promise<SegmentListDto> {
    return this.segments.list();
  }

  @Get('strategies/:strategyId')
  @ApiOperation({
    summary: 'List the segments of a strategy',
    operationId: 'getSegmentsByStrategyId',
  })
  @ApiOkResponse({ type: SegmentListDto })
  @ApiErrors(404)
  ofStrategy(@Param('strategyId') strategyId: string): Promise<SegmentListDto> {
    return this.segments.ofStrategy(strategyId);
  }

  @Get(':id/strategies')
  @ApiOperation({
    summary: 'List the strategies that use a segment',
    operationId: 'getStrategiesBySegmentId',
  })
  @ApiOkResponse({ type: SegmentStrategiesDto })
  @ApiErrors(404)
  strategies(@Param('id', ParseIdPipe) id: number): Promise<SegmentStrategiesDto> {
    return this.segments.strategiesUsing(id);
  }

  @Get(':id')
  @ApiOkResponse({ type: SegmentDto })
  @ApiOperation({ summary: 'Get a segment', operationId: 'getSegment' })
  @ApiErrors(400, 404)
  get(@Param('id', ParseIdPipe) id: number): Promise<SegmentDto> {
    return this.segments.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: SegmentDto })
  @RequirePermission('CREATE_SEGMENT')
  @ApiOperation({ summary: 'Create a segment', operationId: 'createSegment' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateSegmentDto): Promise<SegmentDto> {
    return this.segments.create(dto);
  }

  /** The create form's check; 204, as Unleash answers it. */
  @Post('validate')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The name is valid and free' })
  @RequirePermission('CREATE_SEGMENT')
  @ApiOperation({
    summary: 'Check a new segment name as create would',
    operationId: 'validateSegment',
  })
  @ApiErrors(...BODY_ERRORS, 409)
  validate(@Body() dto: ValidateSegmentDto): Promise<void> {
    return this.segments.validateName(dto.name);
  }

  @Put(':id')
  @ApiOkResponse({ type: SegmentDto })
  @RequirePermission('UPDATE_SEGMENT')
  @ApiOperation({ summary: 'Update a segment', operationId: 'updateSegment' })
  @ApiErrors(...BODY_ERRORS, 404, 409)
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateSegmentDto): Promise<SegmentDto> {
    return this.segments.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_SEGMENT')
  @ApiOperation({ summary: 'Delete a segment', operationId: 'deleteSegment' })
  @ApiErrors(400, 404, 409)
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.segments.remove(id);
  }
}
