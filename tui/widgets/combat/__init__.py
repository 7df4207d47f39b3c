"""The Бой tab: Древо's exchanges, the other systems' round tracker."""
