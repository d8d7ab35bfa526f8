import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SlotPicker } from './slot-picker';

// 23:00Z on 3 Nov is 18:00 on 3 Nov in New York and 08:00 on 4 Nov in Tokyo
const SLOTS = ['2026-11-03T14:00:00.000Z', '2026-11-03T23:00:00.000Z', '2026-11-04T14:00:00.000Z'];

function Harness({ initialZone, onChange = () => {} }: { initialZone: string; onChange?: (start: string) => void }) {
  const [zone, setZone] = useState(initialZone);
  const [value, setValue] = useState('');
  return (
    <SlotPicker
      slots={SLOTS}
      teacherTimeZone="America/New_York"
      timeZone={zone}
      onTimeZoneChange={setZone}
      value={value}
      onChange={(start) => {
        setValue(start);
        onChange(start);
      }}
    />
  );
}

const days = () => within(screen.getByRole('group', { name: 'Day' })).getAllByRole('button').map((b) => b.textContent);
const times = () => within(screen.getByRole('radiogroup', { name: /Times on/ })).getAllByRole('radio').map((r) => r.closest('label')!.textContent);

describe('SlotPicker', () => {
  it("groups the starts by the learner's calendar day and shows the times in their zone", () => {
    render(<Harness initialZone="America/New_York" />);
    expect(days()).toEqual(['Tue 3 Nov2 times', 'Wed 4 Nov1 time']);
    expect(times()).toEqual(['09:00', '18:00']);
    expect(screen.getByText(/The teacher’s time zone: America\/New York \(GMT-5\)/)).toBeInTheDocument();
  });

  it('the zone select is outlined on the modal’s white, its long values shortened rather than cut', () => {
    render(<Harness initialZone="America/Argentina/ComodRivadavia" />);
    const select = screen.getByRole('combobox', { name: 'Times shown in' });
    expect(select.closest('.outlined')).not.toBeNull();
  });

  it('changes zone: the same instants move to other days and hours', async () => {
    const user = userEvent.setup();
    render(<Harness initialZone="America/New_York" />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Times shown in' }), 'Asia/Tokyo');
    expect(days()).toEqual(['Tue 3 Nov1 time', 'Wed 4 Nov2 times']);
    expect(times()).toEqual(['23:00']);
    await user.click(screen.getByRole('button', { name: /Wed 4 Nov/ }));
    expect(times()).toEqual(['08:00', '23:00']);
    expect(screen.getByRole('button', { name: /Wed 4 Nov/ })).toHaveAttribute('aria-pressed', 'true');
  });

  it('picks a start (the UTC instant) with the keyboard too', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness initialZone="UTC" onChange={onChange} />);
    await user.click(screen.getByRole('button', { name: /Tue 3 Nov/ }));
    await user.tab(); // Wed 4 Nov
    await user.tab(); // the first time of Tue 3 Nov
    await user.keyboard(' ');
    expect(onChange).toHaveBeenLastCalledWith('2026-11-03T14:00:00.000Z');
    expect(screen.getByRole('radio', { name: '14:00' })).toBeChecked();
  });

  it('says when there is nothing free, and offers a retry when the times could not load', async () => {
    const user = userEvent.setup();
    const retry = vi.fn();
    const { rerender } = render(<SlotPicker slots={[]} teacherTimeZone="UTC" timeZone="UTC" onTimeZoneChange={() => {}} value="" onChange={() => {}} />);
    expect(screen.getByText(/No free times in the next 14 days/)).toBeInTheDocument();
    rerender(<SlotPicker slots={[]} teacherTimeZone="UTC" timeZone="UTC" onTimeZoneChange={() => {}} value="" onChange={() => {}} isError onRetry={retry} />);
    await user.click(within(screen.getByRole('alert')).getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
  });
  describe('the day strip says when more days hide past its edge', () => {
    // jsdom has no layout: the strip is 200 px wide and its days 500 px
    afterEach(() => vi.restoreAllMocks());
    function layout(scrollWidth: number, clientWidth: number) {
      vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
      vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
    }

    it('marks the hidden sides (faded by the CSS) and follows the scroll', () => {
      layout(500, 200);
      render(<Harness initialZone="UTC" />);
      const strip = screen.getByRole('group', { name: 'Day' });
      expect(strip).toHaveAttribute('data-more', 'end');
      strip.scrollLeft = 150;
      fireEvent.scroll(strip);
      expect(strip).toHaveAttribute('data-more', 'start end');
      strip.scrollLeft = 300;
      fireEvent.scroll(strip);
      expect(strip).toHaveAttribute('data-more', 'start');
    });

    it('no mark when every day fits', () => {
      layout(200, 200);
      render(<Harness initialZone="UTC" />);
      expect(screen.getByRole('group', { name: 'Day' })).not.toHaveAttribute('data-more');
    });
  });
});
