// The companion: three tabs (Salvo!, SALVO, Dice), each game resumed from the browser's storage.

import * as dice from "./dice.js";
import * as grid from "./grid.js";
import * as solo from "./solo.js";
import { $, problem } from "./ui.js";

const TABS = ["solo", "grid", "dice"];

function select(name, focus = false) {
  for (const tab of TABS) {
    const button = $(`tab-${tab}`);
    const on = tab === name;
    button.setAttribute("aria-selected", String(on));
    button.tabIndex = on ? 0 : -1;
    $(tab).hidden = !on;
    if (on && focus) button.focus();
  }
  localStorage.setItem("fire-control:play:tab", name);
}

function wireTabs() {
  for (const tab of TABS) {
    $(`tab-${tab}`).addEventListener("click", () => select(tab));
    $(`tab-${tab}`).addEventListener("keydown", (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      event.preventDefault();
      select(TABS[(TABS.indexOf(tab) + step + TABS.length) % TABS.length], true);
    });
  }
  const kept = localStorage.getItem("fire-control:play:tab");
  select(TABS.includes(kept) ? kept : "solo");
}

async function init() {
  wireTabs();
  dice.init();
  try {
    await Promise.all([solo.init(), grid.init()]);
  } catch (error) {
    problem(error);
  }
  document.body.dataset.ready = "true";
}

init();
