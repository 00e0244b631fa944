/* Revenue model of the guesthouse — pure functions, no DOM.
 * All sums use unrounded values; rounding happens only for display.
 */
'use strict';

const Model = (() => {
  const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const MONTH_NAMES = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
    'September', 'October', 'November', 'December'];

  function daysInMonth(year, m) {
    return new Date(Date.UTC(year, m + 1, 0)).getUTCDate();
  }

  /* Variable cost items of a plan: the base items scaled by the plan's factors, then the plan's
   * extra items. */
  function variableItems(plan, baseItems) {
    const factors = plan.variableCostFactors || {};
    const items = baseItems.map((c) => ({
      id: c.id, name: c.name,
      perNight: c.perNight * (Number.isFinite(factors[c.id]) ? factors[c.id] : 1),
      base: c.perNight, factor: Number.isFinite(factors[c.id]) ? factors[c.id] : 1,
    }));
    for (const x of plan.extraVariableCosts || []) {
      items.push({ id: x.id, name: x.name, perNight: x.perNight, base: x.perNight, factor: 1, extra: true });
    }
    return items;
  }

  /* inp: { rooms, price, occupancy (0-100), year, season[12], fixed[{monthly}], variable[{perNight}] } */
  function project(inp, plan) {
    const shift = Number.isFinite(plan.occupancyShift) ? plan.occupancyShift : 0;
    const effOcc = Math.min(100, Math.max(0, inp.occupancy + shift)) / 100;
    const rate = inp.price * plan.priceFactor;
    const items = variableItems(plan, inp.variable);
    const vcpn = items.reduce((s, c) => s + c.perNight, 0);
    const fixedMonthly = inp.fixed.reduce((s, c) => s + c.monthly, 0);
    const rows = [];
    let ytd = 0;
    for (let m = 0; m < 12; m++) {
      const days = daysInMonth(inp.year, m);
      const occ = Math.min(1, effOcc * inp.season[m]);
      const available = inp.rooms * days;
      const nights = available * occ;
      const revenue = nights * rate;
      const variable = nights * vcpn;
      const cost = fixedMonthly + variable;
      const profit = revenue - cost;
      ytd += profit;
      rows.push({ m, label: MONTHS[m], days, occ, available, nights, revenue, variable, fixed: fixedMonthly, cost, profit, ytd });
    }
    const sum = (k) => rows.reduce((s, r) => s + r[k], 0);
    const revenue = sum('revenue');
    const cost = sum('cost');
    const nights = sum('nights');
    const available = sum('available');
    const variable = sum('variable');
    const profit = revenue - cost;
    return {
      plan, rows, rate, effOcc, items, vcpn, fixedMonthly,
      revenue, cost, variable, fixedAnnual: fixedMonthly * 12, profit, nights, available,
      margin: profit / revenue * 100,
      revpar: revenue / available,
      adr: revenue / nights,
      occupancy: nights / available,
      breakEvenPrice: cost / (nights * plan.priceFactor),
    };
  }

  /* Break-even: the month from which year-to-date profit stays >= 0 through December (null when
   * the year ends with a loss). t is the position of the zero crossing between the previous
   * month (0) and that month (1), by linear interpolation. */
  function breakEven(proj) {
    const ytd = proj.rows.map((r) => r.ytd);
    if (!(ytd[11] >= 0)) return null;
    let m = 11;
    while (m > 0 && ytd[m - 1] >= 0) m--;
    if (m === 0) return { m, t: 1, from: 0 };
    const a = ytd[m - 1];
    const b = ytd[m];
    return { m, t: (0 - a) / (b - a), from: m - 1 };
  }

  return { MONTHS, MONTH_NAMES, daysInMonth, variableItems, project, breakEven };
})();
