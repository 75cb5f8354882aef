// Types for React's scheduler (the package ships none): the part ui/hooks/keypress.tsx uses.
declare module 'scheduler' {
  export const unstable_IdlePriority: number;
  export function unstable_scheduleCallback(priority: number, callback: () => void): unknown;
}
