import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'roleGrantSchema' })
export class RoleGrantDto {
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) environment: string | null;
}

@ApiSchema({ name: 'roleSchema' })
export class RoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: ['root', 'custom'] }) type: 'root' | 'custom';
  @ApiProperty({ type: [RoleGrantDto] }) permissions: RoleGrantDto[];
}

@ApiSchema({ name: 'rolesSchema' })
export class RoleListDto {
  @ApiProperty({ type: [RoleDto] }) roles: RoleDto[];
}
