import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { RequirePermission } from '../auth/auth.decorators';
import { ParseIdPipe } from '../common/parse-id.pipe';
import { CreateSegmentDto, UpdateSegmentDto } from './dto/create-segment.dto';
import { SegmentDto, SegmentListDto, SegmentStrategiesDto } from './dto/segment.dto';
import { SegmentsService } from './segments.service';

@ApiTags('Segments')
@Controller('api/admin/segments')
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  @ApiOkResponse({ type: SegmentListDto })
  list(): Promise<SegmentListDto> {
    return this.segments.list();
  }

  @Get('strategies/:strategyId')
  @ApiOperation({
    summary: 'List the segments of a strategy',
    operationId: 'getSegmentsByStrategyId',
  })
  @ApiOkResponse({ type: SegmentListDto })
  ofStrategy(@Param('strategyId') strategyId: string): Promise<SegmentListDto> {
    return this.segments.ofStrategy(strategyId);
  }

  @Get(':id/strategies')
  @ApiOperation({
    summary: 'List the strategies that use a segment',
    operationId: 'getStrategiesBySegmentId',
  })
  @ApiOkResponse({ type: SegmentStrategiesDto })
  strategies(@Param('id', ParseIdPipe) id: number): Promise<SegmentStrategiesDto> {
    return this.segments.strategiesUsing(id);
  }

  @Get(':id')
  @ApiOkResponse({ type: SegmentDto })
  get(@Param('id', ParseIdPipe) id: number): Promise<SegmentDto> {
    return this.segments.get(id);
  }

  @Post()
  @ApiCreatedResponse({ type: SegmentDto })
  @RequirePermission('CREATE_SEGMENT')
  create(@Body() dto: CreateSegmentDto): Promise<SegmentDto> {
    return this.segments.create(dto);
  }

  @Put(':id')
  @ApiOkResponse({ type: SegmentDto })
  @RequirePermission('UPDATE_SEGMENT')
  update(@Param('id', ParseIdPipe) id: number, @Body() dto: UpdateSegmentDto): Promise<SegmentDto> {
    return this.segments.update(id, dto);
  }

  @Delete(':id')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_SEGMENT')
  remove(@Param('id', ParseIdPipe) id: number): Promise<void> {
    return this.segments.remove(id);
  }
}
