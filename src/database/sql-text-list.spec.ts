import { sqlTextList } from './sql-text-list';

describe('sqlTextList', () => {
  it('quotes each value and joins them as an IN list', () => {
    expect(sqlTextList(['paid', 'past_due'])).toBe("'paid', 'past_due'");
    expect(sqlTextList(['one'])).toBe("'one'");
  });

  it("doubles a quote inside a value, as SQL's text literals do", () => {
    expect(sqlTextList(["it's"])).toBe("'it''s'");
  });
});
