// Placeholder until the property-testing library lands.
