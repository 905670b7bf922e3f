import { ApiProperty } from '@nestjs/swagger';
import { Session } from './session.entity';

/** One of the caller's live sessions, as `GET /api/auth/sessions` lists it. */
export class SessionListItem {
  @ApiProperty({ format: 'uuid', example: '6a0f3d2e-1b4c-4e8a-9f7d-2c5b8e1a4d90' }) id!: string;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' }) created_at!: string;
  @ApiProperty({
    format: 'date-time',
    description: 'recorded at most once a minute',
    example: '2026-01-15T10:02:00.000Z',
  })
  last_used_at!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Mozilla/5.0 (X11; Linux x86_64)' })
  user_agent!: string | null;
  @ApiProperty({ type: String, nullable: true, example: '203.0.113.7' }) ip!: string | null;
  @ApiProperty({ description: 'true for the session this request came with', example: true })
  current!: boolean;

  static from(session: Session, currentId: string): SessionListItem {
    return {
      id: session.id,
      created_at: session.createdAt.toISOString(),
      last_used_at: session.lastUsedAt.toISOString(),
      user_agent: session.userAgent,
      ip: session.ip,
      current: session.id === currentId,
    };
  }
}

export class SessionListResponse {
  @ApiProperty({ type: [SessionListItem] }) items!: SessionListItem[];
}

export class RevokedResponse {
  @ApiProperty({ description: 'how many sessions were ended', example: 2 }) revoked!: number;
}
