import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'apiTokenSchema' })
export class ApiTokenDto {
  @ApiProperty() id: number;
  @ApiProperty() tokenName: string;
  @ApiProperty({ enum: ['admin', 'service', 'client', 'frontend'] }) type: string;
  @ApiProperty({ nullable: true, type: String }) environment: string | null;
  @ApiProperty({ type: [String] }) projects: string[];
  @ApiProperty({ nullable: true, type: Number }) roleId: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

@ApiSchema({ name: 'apiTokenCreatedSchema' })
export class ApiTokenCreatedDto extends ApiTokenDto {
  @ApiProperty({
    description: 'The token to send in the Authorization header; shown only in this response',
  })
  secret: string;
}

@ApiSchema({ name: 'apiTokensSchema' })
export class ApiTokenListDto {
  @ApiProperty({ type: [ApiTokenDto] }) tokens: ApiTokenDto[];
}
