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
import { CreateEnvironmentDto } from './dto/create-environment.dto';
import {
  EnvironmentDto,
  EnvironmentListDto,
  ProjectEnvironmentListDto,
} from './dto/environment.dto';
import { UpdateEnvironmentDto } from './dto/update-environment.dto';
import { EnvironmentsService } from './environments.service';
import { EnvironmentCloneService } from './environment-clone.service';
import { CloneEnvironmentDto } from './dto/clone-environment.dto';
import { ValidateEnvironmentDto } from './dto/validate-environment.dto';

@ApiTags('Environments')
@ApiErrors(401, 403)
@Controller('api/admin/environments')
export class EnvironmentsController {
  constructor(
    private readonly environments: EnvironmentsService,
    private readonly cloning: EnvironmentCloneService,
  ) {}

  @Get()
  @ApiOkResponse({ type: EnvironmentListDto })
  @ApiOperation({ summary: 'List environments', operationId: 'listEnvironments' })
  list(): Promise<EnvironmentListDto> {
    return this.environments.list();
  }

  @Get('project/:id')
  @ApiOperation({
    summary: 'List the environments linked to a project',
    operationId: 'getProjectEnvironments',
  })
  @ApiOkResponse({ type: ProjectEnvironmentListDto })
  @ApiErrors(404)
  ofProject(@Param('id') id: string): Promise<ProjectEnvironmentListDto> {
    return this.environments.ofProject(id);
  }

  @Get(':name')
  @ApiOkResponse({ type: EnvironmentDto })
  @ApiOperation({ summary: 'Get an environment', operationId: 'getEnvironment' })
  @ApiErrors(404)
  get(@Param('name') name: string): Promise<EnvironmentDto> {
    return this.environments.getRecord(name);
  }

  @Post()
  @ApiCreatedResponse({ type: EnvironmentDto })
  @RequirePermission('CREATE_ENVIRONMENT')
  @ApiOperation({ summary: 'Create an environment', operationId: 'createEnvironment' })
  @ApiErrors(...BODY_ERRORS, 409)
  create(@Body() dto: CreateEnvironmentDto): Promise<EnvironmentDto> {
    return this.environments.create(dto);
  }

  /** The create form's check: 204 when fine (Unleash answers 200 with no body; see decisions-ui.md). */
  @Post('validate')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'The name is valid and free' })
  @RequirePermission('CREATE_ENVIRONMENT')
  @ApiOperation({
    summary: 'Check a new environment name as create would',
    operationId: 'validateEnvironmentName',
  })
  @ApiErrors(...BODY_ERRORS, 409)
  validate(@Body() dto: ValidateEnvironmentDto): Promise<void> {
    return this.environments.validateName(dto.name);
  }

  @Post(':name/clone')
  @HttpCode(200)
  @ApiOkResponse({ type: EnvironmentDto, description: 'The new environment' })
  @RequirePermission('CREATE_ENVIRONMENT')
  @ApiOperation({
    summary: 'Clone an environment with its feature configuration',
    operationId: 'cloneEnvironment',
  })
  @ApiErrors(
    ...BODY_ERRORS,
    [404, 'The source environment, or a project to clone, does not exist'],
    409,
  )
  clone(@Param('name') name: string, @Body() dto: CloneEnvironmentDto): Promise<EnvironmentDto> {
    return this.cloning.clone(name, dto);
  }

  @Put(':name')
  @ApiOkResponse({ type: EnvironmentDto })
  @RequirePermission('UPDATE_ENVIRONMENT')
  @ApiOperation({ summary: 'Update an environment', operationId: 'updateEnvironment' })
  @ApiErrors([400, 'Invalid body, or the environment is protected'], 404, 413, 415)
  update(@Param('name') name: string, @Body() dto: UpdateEnvironmentDto): Promise<EnvironmentDto> {
    return this.environments.update(name, dto);
  }

  @Delete(':name')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('DELETE_ENVIRONMENT')
  @ApiOperation({ summary: 'Delete an environment', operationId: 'deleteEnvironment' })
  @ApiErrors([400, 'The environment is protected'], 404, 409)
  remove(@Param('name') name: string): Promise<void> {
    return this.environments.remove(name);
  }

  @Post(':name/on')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('UPDATE_ENVIRONMENT')
  @ApiOperation({ summary: 'Enable an environment', operationId: 'enableEnvironment' })
  @ApiErrors(404)
  enable(@Param('name') name: string): Promise<void> {
    return this.environments.setEnabled(name, true);
  }

  @Post(':name/off')
  @ApiNoContentResponse()
  @HttpCode(204)
  @RequirePermission('UPDATE_ENVIRONMENT')
  @ApiOperation({ summary: 'Disable an environment', operationId: 'disableEnvironment' })
  @ApiErrors(404)
  disable(@Param('name') name: string): Promise<void> {
    return this.environments.setEnabled(name, false);
  }
}
