gestured_scenarios() { :; }
