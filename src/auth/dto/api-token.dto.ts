import { ApiProperty, ApiSchema, OmitType } from '@nestjs/swagger';

@ApiSchema({ name: 'apiTokenSchema' })
export class ApiTokenDto {
  @ApiProperty() id: number;
  @ApiProperty({
    description:
      'Not the secret, which is stored only as a hash and shown once, when the token is made: an identifier of the token (`token-<id>`), which DELETE accepts. Unleash lists the secret here and its admin UI deletes by this field.',
    example: 'token-12',
  })
  secret: string;
  @ApiProperty() tokenName: string;
  @ApiProperty({ enum: ['admin', 'service', 'client', 'frontend'] }) type: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The environment of a client or frontend token; `*` for an admin token',
  })
  environment: string | null;
  @ApiProperty({
    description: 'The one project of the token, `*` for all (or none), `[]` for several',
  })
  project: string;
  @ApiProperty({ type: [String] }) projects: string[];
  @ApiProperty({ nullable: true, type: Number }) roleId: number | null;
  @ApiProperty({ nullable: true, type: String, format: 'date-time' }) expiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

@ApiSchema({ name: 'apiTokenCreatedSchema' })
export class ApiTokenCreatedDto extends OmitType(ApiTokenDto, ['secret'] as const) {
  @ApiProperty({
    description:
      'The token to send in the Authorization header; shown only in this response (lists show the identifier instead)',
  })
  secret: string;
}

@ApiSchema({ name: 'apiTokensSchema' })
export class ApiTokenListDto {
  @ApiProperty({ type: [ApiTokenDto] }) tokens: ApiTokenDto[];
}
