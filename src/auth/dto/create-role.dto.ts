import { ApiProperty, ApiPropertyOptional, ApiSchema, PartialType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsArray, IsIn, IsOptional, IsString, Length, ValidateNested } from 'class-validator';
import { IsNestedObject, IsResourceName } from '../../common/validators';
import { Permission, PERMISSIONS } from '../permissions';

@ApiSchema({ name: 'rolePermissionSchema' })
export class PermissionGrantDto {
  @ApiProperty({ enum: PERMISSIONS })
  @IsIn(PERMISSIONS, { message: `name must be one of the known permissions` })
  name: Permission;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Limits an environment permission to this environment',
  })
  @IsOptional()
  @IsResourceName()
  environment?: string | null;
}

@ApiSchema({ name: 'createRoleSchema' })
export class CreateRoleDto {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiPropertyOptional({ type: String, nullable: true })
  @IsOptional()
  @IsString()
  @Length(0, 1000)
  description?: string | null;

  @ApiProperty({ type: [PermissionGrantDto] })
  @IsArray()
  // ValidateNested alone lets an array inside the array through unchecked (issue 13, D9).
  @IsNestedObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PermissionGrantDto)
  permissions: PermissionGrantDto[];
}

@ApiSchema({ name: 'updateRoleSchema' })
export class UpdateRoleDto extends PartialType(CreateRoleDto, { skipNullProperties: false }) {}
