import { useState } from 'react';
import type { PreviewSlot } from '@learnlingo/contract';
import { Select } from '../../components/ui/select';
import { Spinner } from '../../components/ui/spinner';
import { useGetTeachPreviewQuery } from './hours-api';
import { useBrowserZone } from './hours-parts';
import styles from './hours-tab.module.css';

/** Zones learners often book from, east to west; the teacher's own and this browser's join them. */
const LEARNER_ZONES = [
  'Pacific/Auckland',
  'Australia/Sydney',
  'Asia/Tokyo',
  'Asia/Shanghai',
  'Asia/Kolkata',
  'Asia/Dubai',
  'Europe/Kyiv',
  'Europe/Berlin',
  'Europe/London',
  'UTC',
  'America/Sao_Paulo',
  'America/New_York',
  'America/Chicago',
  'America/Los_Angeles',
];

/** The slots by the learner's day, in order. */
function byDay(slots: readonly PreviewSlot[]) {
  const out = new Map<string, PreviewSlot[]>();
  for (const slot of slots) out.set(slot.date, [...(out.get(slot.date) ?? []), slot]);
  return [...out];
}

/**
 * The coming week's free times as a learner in another zone sees them (GET
 * /api/teach/preview?zone=): the same starts the booking dialog offers, each with the
 * teacher's own time beside it. The zone starts as another than the teacher's own.
 */
export function HoursPreview({ teacherZone }: { teacherZone: string }) {
  const browser = useBrowserZone();
  const [chosen, setChosen] = useState<string | null>(null);
  const zone = chosen ?? (browser && browser !== teacherZone ? browser : teacherZone === 'America/New_York' ? 'Europe/London' : 'America/New_York');
  const zones = [...new Set([...LEARNER_ZONES, teacherZone, ...(browser ? [browser] : [])])];
  const { data, isFetching, isError } = useGetTeachPreviewQuery(zone);
  const shown = data && data.zone === zone ? data : undefined;
  return (
    <div className={styles.entries}>
      <Select label="A learner in" name="zone" value={zone} onChange={(event) => setChosen(event.currentTarget.value)} options={zones.map((z) => ({ value: z, label: z === teacherZone ? `${z} (yours)` : z }))} outlined />
      {isError ? <p className={styles.error}>The preview could not be loaded.</p> : null}
      {!shown && !isError ? <Spinner label="Loading the preview" /> : null}
      {shown && shown.slots.length > 0 ? <p className={styles.hint}>Each time as the learner sees it, with your own time under it.</p> : null}
      {shown ? (
        shown.slots.length === 0 ? (
          <p className={styles.muted}>No free times in the coming week.</p>
        ) : (
          <ul className={styles.previewDays} aria-label={`Free times in ${zone}`} aria-busy={isFetching || undefined}>
            {byDay(shown.slots).map(([date, slots]) => (
              <li key={date} className={styles.previewDay}>
                <h3 className={styles.previewDate} id={`preview-${date}`}>
                  {slots[0]!.weekday} {date}
                </h3>
                <ul className={styles.times} aria-labelledby={`preview-${date}`}>
                  {slots.map((slot) => (
                    <li key={slot.start} className={styles.time}>
                      <span className={styles.timeText}>{slot.time}</span>{' '}
                      <span className={styles.yours}>
                        <span className="visually-hidden">yours: </span>
                        {slot.teacherTime}
                      </span>
                    </li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        )
      ) : null}
    </div>
  );
}
