import { LoadingScreen } from './LoadingScreen.tsx';

export default function LoadingPage() {
  return <LoadingScreen />;
}
