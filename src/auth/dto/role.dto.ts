import { ApiProperty } from '@nestjs/swagger';

export class RoleGrantDto {
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) environment: string | null;
}

export class RoleDto {
  @ApiProperty() id: number;
  @ApiProperty() name: string;
  @ApiProperty({ nullable: true, type: String }) description: string | null;
  @ApiProperty({ enum: ['root', 'custom'] }) type: 'root' | 'custom';
  @ApiProperty({ type: [RoleGrantDto] }) permissions: RoleGrantDto[];
}

export class RoleListDto {
  @ApiProperty({ type: [RoleDto] }) roles: RoleDto[];
}
