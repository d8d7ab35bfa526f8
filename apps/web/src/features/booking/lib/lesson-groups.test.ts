import { describe, expect, it } from 'vitest';
import type { Lesson } from '@learnlingo/contract';
import { groupLessons } from './lesson-groups';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const lesson = (id: string, status: Lesson['status'], start: string | null): Lesson => ({
  id,
  teacher: { id: 't000001', name: 'Jane', surname: 'Smith', avatarUrl: null, timeZone: 'Europe/Paris' },
  language: 'French',
  start,
  end: start && new Date(Date.parse(start) + 3_600_000).toISOString(),
  status,
  cancellable: false,
  reason: 'Living abroad',
  createdAt: '2026-10-01T00:00:00.000Z',
  cancelledAt: status === 'cancelled' ? '2026-11-20T00:00:00.000Z' : null,
  confirmBy: null,
});

describe('groupLessons', () => {
  it('keeps a lesson cancelled before its time among the upcoming ones, by start; one cancelled after it began is past', () => {
    const items = [
      lesson('soon', 'upcoming', '2026-11-28T10:00:00.000Z'),
      lesson('later', 'upcoming', '2026-12-05T10:00:00.000Z'),
      lesson('no-time', 'unscheduled', null),
      lesson('cancelled-ahead', 'cancelled', '2026-12-01T10:00:00.000Z'),
      lesson('done', 'past', '2026-11-20T10:00:00.000Z'),
      lesson('cancelled-before', 'cancelled', '2026-11-10T10:00:00.000Z'),
      lesson('expired', 'expired', '2026-12-02T10:00:00.000Z'),
      // a request (decision 117): waiting, declined, or not answered, all still ahead
      lesson('requested', 'requested', '2026-12-03T10:00:00.000Z'),
      lesson('declined', 'declined', '2026-11-29T10:00:00.000Z'),
      { ...lesson('unanswered', 'expired', '2026-11-30T10:00:00.000Z'), cancelledBy: 'expired' as const },
    ];
    const { upcoming, past } = groupLessons(items, NOW);
    expect(upcoming.map((l) => l.id)).toEqual(['soon', 'declined', 'unanswered', 'cancelled-ahead', 'requested', 'later', 'no-time']);
    expect(past.map((l) => l.id)).toEqual(['done', 'cancelled-before', 'expired']);
  });
});
