import { isWellFormedEvent } from './processor-webhook-event.shape';

describe('isWellFormedEvent', () => {
  it('accepts the envelope every processor event has', () => {
    expect(
      isWellFormedEvent({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } }),
    ).toBe(true);
  });

  // Found by the reliability suite: each of these, signed, must be acknowledged, not a 500 the
  // processor would retry for ever.
  it.each([
    null,
    'evt',
    { id: 'a&', data: null },
    { id: 5, type: 'x', data: { object: {} } },
    { id: '', type: 'x', data: { object: {} } },
    { id: 'evt_1', type: 7, data: { object: {} } },
    { id: 'evt_1', type: 'x' },
    { id: 'evt_1', type: 'x', data: { object: 'string' } },
    { id: 'evt_1', type: 'x', data: { object: [] } },
    { id: 'e'.repeat(256), type: 'x', data: { object: {} } },
  ])('refuses %j', (event) => {
    expect(isWellFormedEvent(event)).toBe(false);
  });
});
