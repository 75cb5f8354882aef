// The palette's pick list: the records an ambiguous id prefix or name matches.
import { useActions, type Route } from '../../../store/index.js';
import { Picker } from '../../components/Picker.js';
import type { ScreenProps } from '../shared.js';

export function Pick({ route, width, height }: ScreenProps<Extract<Route, { name: 'pick' }>>) {
  const actions = useActions();
  return (
    <Picker
      title={route.title}
      items={route.items}
      width={width}
      height={height}
      onCancel={actions.back}
      onChoose={([id]) => {
        if (!id) return;
        actions.back();
        actions.push(route.open === 'session' ? { name: 'chat-session', sessionId: id } : { name: route.open, id });
      }}
    />
  );
}
