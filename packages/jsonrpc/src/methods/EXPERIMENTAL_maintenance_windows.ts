// An alias sharing maintenance_windows' handler, as in nearcore.
export { maintenance_windows as EXPERIMENTAL_maintenance_windows } from './maintenance_windows.js';
